"""_tensor"""
