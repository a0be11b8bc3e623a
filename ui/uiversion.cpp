// placeholder translation unit until the window lands
